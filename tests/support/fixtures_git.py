"""Git's id of a file's content, to check that a copied file is still the one its notes name."""

from __future__ import annotations

import hashlib


def git_blob_id(content: bytes) -> str:
    """The id ``git hash-object`` gives a file with this content (SHA-1 of ``blob <size>\\0`` and the bytes).

    >>> git_blob_id(b"hello\\n")
    'ce013625030ba8dba906f756967f9e9ca394464a'
    """
    return hashlib.sha1(b"blob %d\0" % len(content) + content, usedforsecurity=False).hexdigest()
