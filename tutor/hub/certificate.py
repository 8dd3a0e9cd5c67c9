"""The one-machine hub's own TLS certificate, made on its first start (deploy/hub.sh).

Without TLS, every learner's password and login cookie cross the classroom network in clear
text. A teacher with a certificate from their school gives it to deploy/hub.sh
(TUTOR_HUB_SSL_CERT, TUTOR_HUB_SSL_KEY); otherwise deploy/hub.sh runs this module, which
makes a self-signed certificate for this machine's names and addresses (kept in the hub's
state folder and used again at every start while it still covers them) and prints its
SHA-256 fingerprint and what learners' browsers will say about it.

A self-signed certificate still encrypts: nobody on the network can read the passwords.
What it cannot do alone is prove to a browser that it talks to this machine, so the
browser warns once; a learner who compares the fingerprint the teacher shows with the one
the browser shows (or a school that installs the certificate on its computers) rules out
an impostor.

    python -m tutor.hub.certificate FOLDER   # prints the certificate's and the key's paths
"""

from __future__ import annotations

import datetime
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tutor.web.addresses import Address, interface_addresses, machine_names

CERT_NAME = "hub.crt"
KEY_NAME = "hub.key"
VALID_DAYS = 397  # browsers refuse server certificates valid for longer than 398 days
RENEW_BEFORE_DAYS = 30


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path
    fingerprint: str  # SHA-256, "AB:CD:..." as browsers show it
    made: bool  # made now (False: the one from an earlier start)
    names: tuple[str, ...]
    addresses: tuple[str, ...]


def fingerprint(cert: x509.Certificate) -> str:
    """The SHA-256 fingerprint as browsers show it (pairs of hex digits and colons)."""
    return ":".join(f"{byte:02X}" for byte in cert.fingerprint(hashes.SHA256()))


def _covers(cert: x509.Certificate, names: list[str], addresses: list[Address]) -> bool:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    has_names = set(san.get_values_for_type(x509.DNSName))
    has_addresses = set(san.get_values_for_type(x509.IPAddress))
    fresh = cert.not_valid_after_utc - datetime.timedelta(days=RENEW_BEFORE_DAYS) > _now()
    return fresh and set(names) <= has_names and set(addresses) <= has_addresses


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def ensure_certificate(
    folder: Path, names: list[str] | None = None, addresses: list[Address] | None = None
) -> Certificate:
    """The certificate in ``folder`` if it covers this machine's names and addresses and
    is not about to expire; otherwise a new one (key and certificate, readable by this
    user only)."""
    names = machine_names() if names is None else names
    addresses = interface_addresses() if addresses is None else addresses
    cert_path, key_path = folder / CERT_NAME, folder / KEY_NAME
    if cert_path.is_file() and key_path.is_file():
        existing = x509.load_pem_x509_certificate(cert_path.read_bytes())
        if _covers(existing, names, addresses):
            return Certificate(
                cert_path,
                key_path,
                fingerprint(existing),
                False,
                tuple(names),
                tuple(map(str, addresses)),
            )
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, socket.gethostname()[:64] or "wizard-tutor"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Wizard tutor class hub"),
        ]
    )
    now = _now()
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternatives += [x509.IPAddress(a) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    # Written whole, then renamed: a start that reads them meanwhile sees the old or the new.
    _write_new(
        key_path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    _write_new(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return Certificate(
        cert_path, key_path, fingerprint(cert), True, tuple(names), tuple(map(str, addresses))
    )


def _write_new(path: Path, data: bytes) -> None:
    """``data`` into ``path``, readable by this user only, atomically."""
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    partial.replace(path)


def explain(certificate: Certificate) -> str:
    """What the teacher reads at the hub's start."""
    made = "made now" if certificate.made else "made at an earlier start"
    return f"""\
The hub serves HTTPS with its own certificate ({made}: {certificate.cert}),
for {", ".join(certificate.names)} and {", ".join(certificate.addresses)}.
Its SHA-256 fingerprint:
    {certificate.fingerprint}
Pupils' browsers will warn once that the certificate is not trusted ("Your connection is
not private", NET::ERR_CERT_AUTHORITY_INVALID in Chrome and Edge; "Warning: Potential
Security Risk Ahead" in Firefox; "This Connection Is Not Private" in Safari): the
certificate was not issued by an authority the browser knows. The connection is still
encrypted. Show the fingerprint above to the class; each pupil opens the certificate's
details from the warning page (or the address bar), checks it is the same, then chooses
"Advanced" and "Proceed". A school can instead install {CERT_NAME} on its computers as
trusted, or give the hub a certificate of its own (TUTOR_HUB_SSL_CERT, TUTOR_HUB_SSL_KEY)."""


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tutor.hub.certificate FOLDER", file=sys.stderr)
        return 2
    certificate = ensure_certificate(Path(argv[0]))
    print(explain(certificate), file=sys.stderr)
    print(certificate.cert.resolve())
    print(certificate.key.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
