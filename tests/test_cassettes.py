"""The cassette library: complete, scrubbed, valid for the official SDKs, replayable, repeatable."""

import json
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from harness.providers import PROVIDERS
from offline import cassettes, record, replay, scenarios
from offline.cassettes import CASSETTES, load_interactions
from offline.edges import EDGES
from offline.errors import CassetteError, ReplayMismatch

PAIRS = [(p, s) for p in PROVIDERS for s in [*scenarios.SCENARIOS, *EDGES]]
SECRET = re.compile(r"(sk-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{10,}|AIza[0-9A-Za-z_-]{30,}"
                    r"|Bearer\s+\S{8,}|set-cookie|x-goog-api-key|x-api-key|authorization"
                    r"|openai-organization|openai-project|[?&]key=)", re.IGNORECASE)


def test_every_scenario_is_recorded_for_every_provider():
    missing = [f"{p}/{s}" for p, s in PAIRS if not replay.cassette_path(p, s).exists()]
    assert not missing, f"missing cassettes: {missing}; run `make cassettes`"
    extra = {str(path.relative_to(CASSETTES)) for path in CASSETTES.glob("*/*.yaml")} - {
        f"{p}/{s}.yaml" for p, s in PAIRS}
    assert not extra, f"cassettes for no scenario: {extra}"


def test_manifest_describes_each_cassette():
    manifest = json.loads((CASSETTES / "manifest.json").read_text())
    for provider, scenario in PAIRS:
        entry = manifest[provider][scenario]
        assert entry["made_by"] in ("emulator", "live")
        assert entry["model"] and entry["api_version"] == PROVIDERS[provider].api_version
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["date"])
        assert entry["exit"] == scenarios.get(scenario).expected_exit.value


@pytest.mark.parametrize("path", sorted(CASSETTES.glob("*/*.yaml")), ids=lambda p: p.stem)
def test_no_secret_or_noisy_header_in_any_cassette(path: Path):
    text = path.read_text()
    assert not SECRET.search(text), f"{path}: {SECRET.search(text).group(0)!r}"
    data = yaml.safe_load(text)  # the stock YAML loader reads it: plain vcrpy YAML
    for interaction in data["interactions"]:
        assert set(map(str.lower, interaction["request"]["headers"])) <= {
            "content-type", "anthropic-version"}
        for name in map(str.lower, interaction["response"]["headers"]):
            assert name in cassettes.KEPT_RESPONSE_HEADERS or name.startswith(
                cassettes.KEPT_RESPONSE_PREFIXES), name
            assert name == "content-type" or interaction["response"]["status"]["code"] == 429
        json.loads(interaction["request"]["body"])  # readable JSON, not compressed bytes


def _validator(provider: str):
    if provider == "openai_chat":
        from openai.types.chat import ChatCompletion
        return ChatCompletion.model_validate
    if provider == "openai_responses":
        from openai.types.responses import Response
        return Response.model_validate
    if provider == "anthropic":
        from anthropic.types import Message
        return Message.model_validate
    from google.genai.types import GenerateContentResponse
    return GenerateContentResponse.model_validate


def _error_validator(provider: str):
    if provider.startswith("openai"):
        from openai.types.shared import ErrorObject
        return lambda body: ErrorObject.model_validate(body["error"])
    if provider == "anthropic":
        from anthropic.types.shared import ErrorResponse
        return ErrorResponse.model_validate

    def google(body):
        from google.genai.errors import APIError
        error = APIError(body["error"]["code"], body)
        assert error.status and error.message
    return google


@pytest.mark.parametrize(("provider", "scenario"), PAIRS)
def test_response_bodies_validate_against_the_official_sdk_types(provider, scenario):
    for exchange in load_interactions(provider, scenario):
        if exchange["status"] >= 400:
            _error_validator(provider)(exchange["response"])
        else:
            _validator(provider)(exchange["response"])


@pytest.mark.parametrize(("provider", "scenario"), PAIRS)
def test_the_reference_loop_replays_to_the_intended_exit(provider, scenario):
    with replay.replay(provider, scenario) as session:
        result = session.run()
        assert result.status is session.scenario.expected_exit
        assert session.unplayed == 0, "the run made fewer calls than were recorded"


def _sdk_call(provider: str, body: dict, url: str):
    """Send a recorded request body through the official client; return its parsed reply."""
    if provider.startswith("openai"):
        import openai
        client = openai.OpenAI(api_key="replay", max_retries=0)
        create = (client.chat.completions.create if provider == "openai_chat"
                  else client.responses.create)
        return create(**body)
    if provider == "anthropic":
        import anthropic
        return anthropic.Anthropic(api_key="replay", max_retries=0).messages.create(**body)
    from google import genai
    from google.genai import types
    client = genai.Client(api_key="replay", http_options=types.HttpOptions(api_version="v1beta"))
    config = {key: body[key] for key in ("systemInstruction", "tools", "toolConfig") if key in body}
    config |= body.get("generationConfig", {})
    model = re.search(r"models/([^:]+):", url).group(1)
    return client.models.generate_content(
        model=model, contents=body["contents"],
        config=types.GenerateContentConfig.model_validate(
            config | {"automaticFunctionCalling": {"disable": True}}))


@pytest.mark.parametrize(("provider", "scenario"), PAIRS)
def test_every_cassette_replays_through_the_official_client(provider, scenario):
    exchanges = load_interactions(provider, scenario)
    path = replay.cassette_path(provider, scenario)
    with cassettes.use(path, record_mode="none") as cassette:
        for exchange in exchanges:
            if exchange["status"] >= 400:  # each client raises its own error for the status
                with pytest.raises(Exception) as caught:
                    _sdk_call(provider, exchange["request"], exchange["url"])
                status = getattr(caught.value, "status_code", getattr(caught.value, "code", None))
                assert status == exchange["status"], caught.value
                continue
            reply = _sdk_call(provider, exchange["request"], exchange["url"])
            assert reply is not None
        assert cassette.all_played


def test_a_wrong_request_names_the_call_and_the_place():
    from harness.messages import ToolMessage

    # A broken loop: the tool result goes in before the assistant turn that asked for it.
    with pytest.raises(ReplayMismatch) as caught, replay.replay("openai_chat", "umbrella") as s:
        first = s.model.complete(s.scenario.messages(), tools=s.scenario.tools().specs)
        call = first.message.tool_calls[0]
        wrong = [*s.scenario.messages(), ToolMessage(tool_call_id=call.id, content="rain"),
                 first.message]
        s.model.complete(wrong, tools=s.scenario.tools().specs)
    message = str(caught.value)
    assert "openai_chat/umbrella, call 2" in message
    assert "body.messages[2]" in message and "04_reading_the_input" in message


def test_an_extra_call_says_the_recording_has_ended():
    with pytest.raises(ReplayMismatch, match="has only 1 call"), \
            replay.replay("anthropic", "no_tool_needed") as session:
        session.run()
        session.model.complete(session.scenario.messages())


def test_replay_answers_only_from_the_cassette_and_blocks_other_sockets():
    import socket

    from offline import guard
    from offline.errors import NetworkBlocked
    guard.uninstall()  # prove that replay installs the guard itself
    try:
        with replay.replay("gemini", "umbrella") as session:
            with pytest.raises(NetworkBlocked):
                socket.create_connection(("example.com", 80), timeout=2)
            with pytest.raises(ReplayMismatch, match="went to GET https://example.com/"):
                session.model.client.get("https://example.com/")
        # the cassette answers the adapter's client only: any other is stopped by the guard
        with pytest.raises(NetworkBlocked, match="example.com"), \
                replay.replay("gemini", "umbrella") as session:
            httpx.get("https://example.com/", timeout=2)
        assert session.played == 0
    finally:
        guard.install()


def test_missing_cassette_and_unknown_names_explain_the_fix(tmp_path):
    with pytest.raises(CassetteError, match="python -m course record"):
        with replay.replay("anthropic", "umbrella", directory=tmp_path):
            pass
    with pytest.raises(ValueError, match="unknown provider 'openai'; choose one of: openai_chat"):
        load_interactions("openai", "umbrella")
    with pytest.raises(ValueError, match="choose one of"):
        load_interactions("anthropic", "umbrela")


def test_recording_refuses_to_overwrite_and_regenerates_byte_identical(tmp_path):
    for provider, scenario in PAIRS:
        record.record(provider, scenario, directory=tmp_path)
    for provider, scenario in PAIRS:
        fresh = replay.cassette_path(provider, scenario, directory=tmp_path).read_bytes()
        committed = replay.cassette_path(provider, scenario).read_bytes()
        assert fresh == committed, f"{provider}/{scenario} differs: run `make cassettes`"
    with pytest.raises(CassetteError, match="--force"):
        record.record("anthropic", "umbrella", directory=tmp_path)
    before = (tmp_path / "manifest.json").read_bytes()
    record.record("anthropic", "umbrella", directory=tmp_path, force=True)
    assert (tmp_path / "manifest.json").read_bytes() == before


def test_recordings_made_in_several_threads_at_once_hold_only_their_own_exchanges(tmp_path):
    # vcrpy patches httpx for the whole process: the class grader records students' variants
    # in one thread per shard, and a cassette open in one thread must not take in another's.
    from concurrent.futures import ThreadPoolExecutor

    jobs = [(provider, scenario, tmp_path / f"{provider}-{scenario}-{n}")
            for n in range(3) for provider in ("openai_chat", "anthropic")
            for scenario in ("two_cities", "refund_doom_loop")]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda job: record.record(job[0], job[1], directory=job[2]), jobs))
    for provider, scenario, folder in jobs:
        fresh = replay.cassette_path(provider, scenario, directory=folder).read_bytes()
        assert fresh == replay.cassette_path(provider, scenario).read_bytes(), folder.name


def test_pure_python_yaml_writes_the_same_bytes_as_libyaml():
    class Plain(yaml.SafeDumper):  # what a machine without libyaml writes with
        pass

    Plain.add_representer(str, cassettes._str)
    paths = sorted(CASSETTES.glob("*/*.yaml"))
    for path in paths:
        cassette = cassettes._Serializer.deserialize(path.read_text())
        assert yaml.dump(cassette, Dumper=Plain, sort_keys=False, allow_unicode=True,
                         width=100) == cassettes._Serializer.serialize(cassette), path
    assert len(paths) >= len(PAIRS) and cassettes._Dumper.__mro__[1] is yaml.CSafeDumper


def test_live_recording_without_a_key_fails_clearly(tmp_path, monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(CassetteError, match="ANTHROPIC_API_KEY"):
        record.record("anthropic", "umbrella", live=True, directory=tmp_path)
    assert not list(tmp_path.rglob("*.yaml"))


def test_replay_patches_nothing_and_leaves_vcrpy_unimported():
    # The adapter's own client is answered by the recording; vcrpy (which patches every HTTP
    # library it finds, and costs a lesson half a second to import) is for recording only.
    code = ("import sys\nfrom offline.replay import replay_scenario\n"
            "print(replay_scenario('anthropic', 'bench_press').turns, 'vcr' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["4", "False"]
