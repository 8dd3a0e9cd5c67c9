"""The course as a static site (``wizard-tutor build-site DIR``): every notebook rendered as
a Voici page whose Python runs in the learner's browser (JupyterLite's Pyodide kernel), so
any static web server serves the whole course, and no page needs a server process.

- :mod:`tutor.site.build` builds the folder (on the teacher's machine), its steps in
  :mod:`tutor.site.build_inputs`, :mod:`tutor.site.build_wheels` and
  :mod:`tutor.site.build_pages`;
- ``page.js`` is the page script every page runs before Voici's own;
- ``loader.js`` starts Pyodide in the kernel's worker and installs the pages' packages
  from the site's one archive of them;
- :mod:`tutor.site.kernel` and ``startup.py`` set up the browser's Python before a
  notebook runs;
- :mod:`tutor.site.precompile` (run by the build in the site's Pyodide under Node.js,
  through ``precompile.mjs``) compiles what pages import, in the wheels and in Python's
  standard library, so that no browser compiles it again;
- ``browser-requirements.txt`` (the browser's wheels, hash-pinned) and
  ``pyodide/package*.json`` (the Pyodide runtime, from npm) name what the build copies in;
  ``scripts/setup_site.sh`` fetches both once.

Nothing is imported here: the browser's Python imports :mod:`tutor.site.kernel` alone.
"""
