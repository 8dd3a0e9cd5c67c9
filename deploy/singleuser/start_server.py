"""Start a learner's server (what ``jupyterhub-singleuser`` starts), about 2.4 CPU-seconds
sooner.

Jupyter Server imports jsonschema, which imports ``rfc3987_syntax`` if it is installed
(jsonschema's "format-nongpl" extra brings it), and that module compiles some thirty Lark
grammars as it is imported: measured 2.4 of the 5.4 CPU-seconds a server takes to start
(python -X importtime; jsonschema 4.26, rfc3987-syntax 1.1). It serves only the "iri" and
"iri-reference" formats, which no Jupyter schema uses. Marked as missing here, jsonschema
leaves those two format checks out and the server starts without the cost: on a small
machine where a whole class logs in at once, that is close to half of the wait.

Used as the server's command by deploy/jupyterhub_config.py, deploy/Dockerfile and
deploy/z2jh-values.yaml; takes the same arguments as ``jupyterhub-singleuser``.
"""

import sys

# An entry of None makes "import rfc3987_syntax" raise ImportError, which jsonschema expects.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

from jupyterhub.singleuser import main  # noqa: E402  (after the entry above, on purpose)

if __name__ == "__main__":
    sys.exit(main())
