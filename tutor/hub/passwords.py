"""How the hub stores a learner's password: bcrypt over an HMAC-SHA-256 of it.

bcrypt reads at most 72 bytes of a password (bcrypt 5 refuses longer ones with
``ValueError``, which was a blank "500 : Internal Server Error" at sign-up and login). In
a course offered in Japanese and Chinese, 24 characters are already 72 bytes in UTF-8. So
the password is first reduced to a fixed 44 ASCII bytes: HMAC-SHA-256 keyed with the
bcrypt salt, in base64 (the scheme of passlib's ``bcrypt_sha256``):

- every byte of the password counts, however long;
- base64: the raw digest may hold NUL bytes, where bcrypt would stop reading;
- keyed with the salt, not a bare SHA-256: a bare one would let whoever has a leak of
  unsalted SHA-256 hashes from elsewhere test them against these without cracking.

Such hashes are stored with the prefix :data:`PREFIX`; a hash without it is NativeAuthenticator's
own (bcrypt of the password itself, from before this scheme) and is still checked that way,
so existing accounts keep working (and are stored anew at their next login).

A password is 1 to :data:`MAX_PASSWORD_BYTES` bytes in UTF-8: hashing is bounded work,
and a longer one is refused with a message naming the limit.

>>> stored = hash_password("漢字のパスワード" * 10)   # 240 bytes
>>> stored.startswith(PREFIX), password_matches("漢字のパスワード" * 10, stored)
(True, True)
>>> password_matches("漢字のパスワード" * 9, stored)
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac

import bcrypt

PREFIX = b"tutor-bcrypt-sha256$"
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
    salt = bcrypt.gensalt()
    return PREFIX + bcrypt.hashpw(_prehash(secret, salt), salt)


def password_matches(password: str, stored: bytes) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (either scheme). Never
    raises for what a form can send: too long or not UTF-8 simply does not match."""
    secret = password_bytes(password)
    if secret is None or len(secret) > MAX_PASSWORD_BYTES:
        return False
    try:
        if stored.startswith(PREFIX):
            hashed = stored[len(PREFIX) :]
            return bcrypt.checkpw(_prehash(secret, hashed[:29]), hashed)
        # NativeAuthenticator's own hashes: bcrypt of the password, which it could only
        # make for passwords of at most 72 bytes.
        return len(secret) <= BCRYPT_LIMIT and bcrypt.checkpw(secret, stored)
    except ValueError:  # a stored value that is no bcrypt hash
        return False


def is_legacy(stored: bytes) -> bool:
    """Whether ``stored`` is NativeAuthenticator's own scheme (to store anew)."""
    return not stored.startswith(PREFIX)
