"""This MONET's version, from its installed metadata (a wheel, an editable install, or a
PyInstaller bundle, which carries the metadata: ``packaging/monet.spec``)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

NOT_INSTALLED = "unknown (not installed: pip install -e .)"


def monet_version(missing: str = NOT_INSTALLED) -> str:
    """The installed version, or ``missing`` when MONET runs from a bare checkout."""
    try:
        return version("monet")
    except PackageNotFoundError:
        return missing
