"""Record a scenario into its cassette: against the emulator, or the live API with a key.

`record` refuses to overwrite a cassette without `force`, writes to a scratch file and replaces the
old cassette only when the new recording succeeded, checks that no key from the environment made
it into the file, and notes in `cassettes/manifest.json` how the cassette was made. Recording from
the emulator is deterministic: a second run changes no byte, the manifest included.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import httpx

from harness import providers
from harness.providers.catalog import KEY_VARIABLES
from offline import scenarios
from offline.cassettes import CASSETTES, cassette_path, use
from offline.errors import CassetteError
from offline.scenarios import provider_options


def record(provider: str, scenario: str | scenarios.Scenario, *, live: bool = False,
           force: bool = False, directory: Path = CASSETTES) -> Path:
    """Record a scenario (a name, or a `Scenario` in no table) into a cassette: against the
    emulator, or the live API with a key."""
    from offline.emulator import OFFLINE_KEY, Emulator  # only recording needs the emulator

    variables = providers.provider(provider).key_variables  # a ValueError for a typo
    chosen = scenarios.get(scenario)
    scenario = chosen.name
    path = cassette_path(provider, scenario, directory=directory)
    if path.exists() and not force:
        raise CassetteError(f"{path} exists; pass --force to overwrite it (the old recording "
                            f"is replaced only after the new one succeeds).")
    transport: httpx.BaseTransport
    if live:
        key = key_for(provider)
        if key is None:
            raise CassetteError(f"recording {provider} live needs an API key: set "
                                f"{' or '.join(variables)}, or use --emulator.")
        transport, options = httpx.HTTPTransport(), {"api_key": key}
    else:
        emulator = Emulator(chosen.model(provider), seed=f"{provider}/{scenario}")
        # vcrpy records what passes through httpx's own transports: wrap the emulator in one.
        # A placeholder key, so the adapter never picks up a real one from the environment.
        transport = httpx.MockTransport(emulator.handle_request)
        options = {"api_key": OFFLINE_KEY}
    scratch = path.with_suffix(".recording.yaml")
    scratch.parent.mkdir(parents=True, exist_ok=True)
    scratch.unlink(missing_ok=True)
    with httpx.Client(transport=transport, timeout=120) as client, \
            use(scratch, record_mode="all"):
        model = providers.get(provider, client=client,
                              **provider_options(provider, chosen) | options)
        result = chosen.run(model)
    check_scrubbed(scratch)
    changed = not path.exists() or path.read_bytes() != scratch.read_bytes()
    scratch.replace(path)
    _update_manifest(directory, provider, scenario, model=getattr(model, "model", "?"),
                     made_by="live" if live else "emulator", exit=result.status.value,
                     calls=result.turns, changed=changed)
    return path


def key_for(provider: str) -> str | None:
    """The provider's API key from the environment (the first of its variables that is set)."""
    variables = providers.provider(provider).key_variables
    return next((os.environ[v] for v in variables if os.environ.get(v)), None)


def check_scrubbed(path: Path) -> None:
    """Delete `path` and raise if it holds an API key from the environment (or its base64)."""
    text = path.read_text()
    for secret in _secrets():
        if secret and secret in text:
            path.unlink()
            raise CassetteError(f"{path} would contain an API key from the environment; "
                                f"nothing was written. Report this as a bug.")


def _secrets() -> list[str]:
    values = [os.environ.get(name, "") for name in KEY_VARIABLES]
    return [v for v in values if len(v) >= 8] + [base64.b64encode(v.encode()).decode()
                                                  for v in values if len(v) >= 8]


def _update_manifest(directory: Path, provider: str, scenario: str, *, changed: bool,
                     **entry: Any) -> None:
    """Record how each cassette was made. An unchanged cassette keeps its date: reruns are
    byte-identical."""
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    old = manifest.get(provider, {}).get(scenario)
    date = old["date"] if old and not changed else dt.date.today().isoformat()
    manifest.setdefault(provider, {})[scenario] = entry | {
        "api_version": providers.PROVIDERS[provider].api_version, "date": date}
    ordered = {p: dict(sorted(manifest[p].items())) for p in sorted(manifest)}
    path.write_text(json.dumps(ordered, indent=2, sort_keys=False) + "\n")
