"""Tests of the tutor served to a class through JupyterHub (deploy/), on 127.0.0.1."""
