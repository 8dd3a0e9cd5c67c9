"""What both servers serve alike, the app (:mod:`tutor.app`) and the hub (:mod:`tutor.hub`):
the tutor's own short pages and error pages (:mod:`tutor.web.pages`) and the live room, a
teacher's questions answered on the learners' phones (:mod:`tutor.web.room` and the
modules beside it, its store :mod:`tutor.web.room_store` for both hosts, its handlers
:mod:`tutor.web.room_server`).

A layer below the hosts, so that neither host imports the other. Light: tornado and the
catalogs (and SQLAlchemy for the room's store), nothing of Voila or Jupyter. Nothing is
imported here.
"""
