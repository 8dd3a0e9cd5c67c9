"""The tutor on JupyterHub: what the hub, the learners' servers and the teacher's service
run beyond JupyterHub itself (deploy/README.md tells the whole story).

- :mod:`tutor.hub.login`: each learner's own password (JupyterHub's NativeAuthenticator)
  plus failed-login limits per name and per address (:mod:`tutor.hub.login_throttle`), on
  the hub's pages in the learner's language (:mod:`tutor.hub.login_pages`,
  :mod:`tutor.hub.login_waits`, :mod:`tutor.hub.hub_pages`), one language rule for them
  and the course's pages (:mod:`tutor.hub.page_language`);
- :mod:`tutor.hub.class_progress`: a class's results, each learner's events summed up by
  the learner's own summary (docs/progress.md);
- :mod:`tutor.hub.teacher_service`: the teacher's page (:mod:`tutor.hub.teacher_page`), a
  JupyterHub service keeping the class's events in SQLite or PostgreSQL
  (:mod:`tutor.hub.class_events`);
- :mod:`tutor.hub.server_extension`: inside a learner's server, forwards new answers to
  that service and keeps the lock-down's rule for Voila's page-close kernel shutdown.

This sits above the tutor's layers (it reads lessons, topics and catalogs, nothing imports
it) and needs the ``hub`` extra (JupyterHub); the rest of the tutor never imports it.
"""
