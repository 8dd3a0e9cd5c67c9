"""Tests under tests/hub/ start a real JupyterHub (deploy/hub.sh) with
configurable-http-proxy from npm (deploy/install_proxy.sh installs it on first use).
Their marker, ``hub``, is registered in pyproject.toml."""
