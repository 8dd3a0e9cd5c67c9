"""How the hub stores a learner's password: Argon2id (argon2-cffi, which Jupyter's server
already brings), whose input has no length limit of its own.

Older schemes still verify, so existing accounts keep working, and are stored anew in
Argon2id at their next login (:func:`needs_rehash`):

- the tutor's earlier one, prefixed :data:`BCRYPT_SHA256_PREFIX`: bcrypt over an
  HMAC-SHA-256 of the password keyed with the bcrypt salt, in base64 (bcrypt reads at most
  72 bytes, which 24 Japanese or Chinese characters already fill);
- NativeAuthenticator's own: bcrypt of the password itself (at most 72 bytes).

A password is 1 to :data:`MAX_PASSWORD_BYTES` bytes in UTF-8: hashing is bounded work,
and a longer one is refused with a message naming the limit.

>>> stored = hash_password("漢字のパスワード" * 10)   # 240 bytes
>>> stored.startswith(b"$argon2id$"), password_matches("漢字のパスワード" * 10, stored)
(True, True)
>>> password_matches("漢字のパスワード" * 9, stored), needs_rehash(stored)
(False, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac

import bcrypt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

BCRYPT_SHA256_PREFIX = b"tutor-bcrypt-sha256$"
ARGON2_PREFIX = b"$argon2"
# argon2-cffi's defaults (RFC 9106's low-memory profile: 64 MiB, 3 passes): about 50 ms of
# CPU; the login runs it in a thread (tutor/hub/login.py).
HASHER = PasswordHasher()
MAX_PASSWORD_BYTES = 1024
BCRYPT_LIMIT = 72  # bytes bcrypt reads


def password_bytes(password: str) -> bytes | None:
    """``password`` in UTF-8, or None if it cannot be (a lone surrogate).

    >>> password_bytes("ab"), password_bytes("\\udc80")
    (b'ab', None)
    """
    try:
        return password.encode("utf-8")
    except UnicodeEncodeError:
        return None


def is_too_long(password: str) -> bool:
    """Whether ``password`` is over :data:`MAX_PASSWORD_BYTES` bytes in UTF-8.

    >>> is_too_long("x" * 1024), is_too_long("x" * 1025), is_too_long("字" * 342)
    (False, True, True)
    """
    return len(password.encode("utf-8", "surrogatepass")) > MAX_PASSWORD_BYTES


def _prehash(secret: bytes, salt: bytes) -> bytes:
    return base64.b64encode(hmac.new(salt, secret, hashlib.sha256).digest())


def hash_password(password: str) -> bytes:
    """What the hub stores for ``password`` (which must be valid UTF-8 and not too long:
    the forms check first and say why)."""
    secret = password_bytes(password)
    if secret is None or len(secret) > MAX_PASSWORD_BYTES:
        raise ValueError("a password must be valid UTF-8 of at most 1024 bytes")
    return HASHER.hash(secret).encode("ascii")


def password_matches(password: str, stored: bytes) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (any of the schemes). Never
    raises for what a form can send: too long or not UTF-8 simply does not match."""
    secret = password_bytes(password)
    if secret is None or len(secret) > MAX_PASSWORD_BYTES:
        return False
    try:
        if stored.startswith(ARGON2_PREFIX):
            return HASHER.verify(stored, secret)
        if stored.startswith(BCRYPT_SHA256_PREFIX):
            hashed = stored[len(BCRYPT_SHA256_PREFIX) :]
            return bcrypt.checkpw(_prehash(secret, hashed[:29]), hashed)
        # NativeAuthenticator's own hashes: bcrypt of the password, which it could only
        # make for passwords of at most 72 bytes.
        return len(secret) <= BCRYPT_LIMIT and bcrypt.checkpw(secret, stored)
    except (ValueError, VerificationError, InvalidHashError):  # no match, or no hash at all
        return False


def needs_rehash(stored: bytes) -> bool:
    """Whether ``stored`` is an older scheme, or Argon2 with other settings than
    :data:`HASHER`'s (to store anew at a successful login)."""
    if not stored.startswith(ARGON2_PREFIX):
        return True
    try:
        return HASHER.check_needs_rehash(stored.decode("ascii"))
    except (ValueError, InvalidHashError):
        return True
