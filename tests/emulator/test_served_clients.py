"""`python -m course emulate` with real client libraries on loopback: the official openai,
anthropic and google-genai SDKs, each with its own tool loop where it has one, end with the
scripted answer after calling each tool with the scripted arguments; a wrong key and an unknown
model raise each client's own typed error; the same loops streamed (each SDK's own stream helper
assembling the reply) end the same way; the command itself serves, logs and stops on Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from offline.script_file import parse
from offline.serving import Session, emulate

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = [
    {"text": "Let me check both.", "calls": [
        {"name": "get_weather", "arguments": {"city": "Paris"}},
        {"name": "get_weather", "arguments": {"city": "Rome"}}]},
    {"text": "Paris: sunny. Rome: rain."},
]
ANSWER = "Paris: sunny. Rome: rain."
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
QUESTION = "Weather in Paris and Rome?"
CHAT_TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": SCHEMA}}]
RESPONSES_TOOLS = [{"type": "function", "name": "get_weather", "parameters": SCHEMA,
                    "strict": True}]


def get_weather(city: str) -> str:
    """Weather for a city."""
    CALLED.append(city)
    return {"Paris": "sunny", "Rome": "rain"}[city]


CALLED: list[str] = []


@pytest.fixture
def session(request: pytest.FixtureRequest) -> Iterator[tuple[Session, io.StringIO]]:
    CALLED.clear()
    log = io.StringIO()
    with emulate(request.param, parse(SCRIPT), port=0, out=log) as served:
        yield served, log


@pytest.mark.parametrize("session", ["openai_chat"], indirect=True)
def test_openai_chat_completions_loop(session: tuple[Session, io.StringIO]) -> None:
    served, log = session
    tools: Any = CHAT_TOOLS
    messages: Any = [{"role": "user", "content": QUESTION}]
    with openai.OpenAI(base_url=served.url + "/v1", api_key=served.key, max_retries=0) as client:
        while True:
            reply = client.chat.completions.create(model="gpt-5-mini", messages=messages,
                                                   tools=tools)
            message = reply.choices[0].message
            messages.append(message)
            if not message.tool_calls:
                break
            for call in message.tool_calls:
                result = get_weather(**json.loads(call.function.arguments))
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        assert (message.content, CALLED) == (ANSWER, ["Paris", "Rome"])
        with pytest.raises(openai.NotFoundError):
            client.chat.completions.create(model="gpt-9", messages=messages[:1])
    with openai.OpenAI(base_url=served.url + "/v1", api_key="sk-wrong", max_retries=0) as client:
        with pytest.raises(openai.AuthenticationError):
            client.chat.completions.create(model="gpt-5-mini", messages=messages[:1])
    assert "#4 POST /v1/chat/completions gpt-5-mini -> 401" in log.getvalue()


@pytest.mark.parametrize("session", ["openai_responses"], indirect=True)
def test_openai_responses_loop(session: tuple[Session, io.StringIO]) -> None:
    served, _ = session
    tools: Any = RESPONSES_TOOLS
    history: Any = [{"role": "user", "content": QUESTION}]
    with openai.OpenAI(base_url=served.url + "/v1", api_key=served.key, max_retries=0) as client:
        response = client.responses.create(model="gpt-6-sol", input=history, tools=tools)
        while calls := [item for item in response.output if item.type == "function_call"]:
            history += [item.model_dump(exclude_none=True) for item in response.output]
            history += [{"type": "function_call_output", "call_id": call.call_id,
                         "output": get_weather(**json.loads(call.arguments))} for call in calls]
            response = client.responses.create(model="gpt-6-sol", input=history, tools=tools)
        assert (response.output_text, CALLED) == (ANSWER, ["Paris", "Rome"])
        with pytest.raises(openai.BadRequestError) as caught:  # a 400 on Responses, for real
            client.responses.create(model="gpt-9", input="Hi")
        assert caught.value.code == "model_not_found"


@pytest.mark.parametrize("session", ["anthropic"], indirect=True)
def test_anthropic_tool_runner_over_a_message_thread(session: tuple[Session, io.StringIO]
                                                     ) -> None:
    served, log = session
    with anthropic.Anthropic(base_url=served.url, api_key=served.key, max_retries=0) as client:
        runner = client.beta.messages.tool_runner(
            model="claude-haiku-4-5", max_tokens=1024, tools=[anthropic.beta_tool(get_weather)],
            messages=[{"role": "user", "content": QUESTION}])
        final = list(runner)[-1]
        assert (final.content[0].text, CALLED) == (ANSWER, ["Paris", "Rome"])
        with pytest.raises(anthropic.NotFoundError):
            client.messages.create(model="claude-3-opus-latest", max_tokens=64,
                                   messages=[{"role": "user", "content": "Hi"}])
    with anthropic.Anthropic(base_url=served.url, api_key="sk-wrong", max_retries=0) as client:
        with pytest.raises(anthropic.AuthenticationError):
            client.messages.create(model="claude-haiku-4-5", max_tokens=64,
                                   messages=[{"role": "user", "content": "Hi"}])
    assert "thread continue" in log.getvalue()  # the second turn sent only the new messages


@pytest.mark.parametrize("session", ["gemini"], indirect=True)
def test_google_genai_automatic_function_calling_on_v1(session: tuple[Session, io.StringIO]
                                                       ) -> None:
    served, log = session
    client = genai.Client(api_key=served.key, http_options=types.HttpOptions(base_url=served.url))
    with client:  # google-genai 3.x calls /v1/ unless told otherwise
        reply = client.models.generate_content(
            model="gemini-2.5-flash", contents=QUESTION,
            config=types.GenerateContentConfig(tools=[get_weather]))
        assert (reply.text, CALLED) == (ANSWER, ["Paris", "Rome"])
        with pytest.raises(genai_errors.ClientError) as caught:
            client.models.generate_content(model="gemini-3-flash-preview", contents="Hi")
        assert caught.value.code == 404 and "API version v1," in caught.value.message
    with genai.Client(api_key="sk-wrong", http_options=types.HttpOptions(
            base_url=served.url)) as wrong, pytest.raises(genai_errors.ClientError) as caught:
        wrong.models.generate_content(model="gemini-2.5-flash", contents="Hi")
    assert (caught.value.code, caught.value.status) == (400, "INVALID_ARGUMENT")
    assert "POST /v1/models/gemini-2.5-flash:generateContent gemini-2.5-flash -> 200" in (
        log.getvalue())


@pytest.mark.parametrize("session", ["openai_chat"], indirect=True)
def test_openai_chat_completions_loop_streamed(session: tuple[Session, io.StringIO]) -> None:
    served, log = session
    tools: Any = CHAT_TOOLS
    messages: Any = [{"role": "user", "content": QUESTION}]
    with openai.OpenAI(base_url=served.url + "/v1", api_key=served.key, max_retries=0) as client:
        while True:
            with client.chat.completions.stream(model="gpt-5-mini", messages=messages,
                                                tools=tools) as stream:
                message = stream.get_final_completion().choices[0].message
            messages.append(message.model_dump(exclude_none=True, exclude={"parsed"}))
            if not message.tool_calls:
                break
            for call in message.tool_calls:
                result = get_weather(**json.loads(call.function.arguments))
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    assert (message.content, CALLED) == (ANSWER, ["Paris", "Rome"])
    assert log.getvalue().count("-> 200") == 2


@pytest.mark.parametrize("session", ["openai_responses"], indirect=True)
def test_openai_responses_loop_streamed(session: tuple[Session, io.StringIO]) -> None:
    served, _ = session
    tools: Any = RESPONSES_TOOLS
    history: Any = [{"role": "user", "content": QUESTION}]
    with openai.OpenAI(base_url=served.url + "/v1", api_key=served.key, max_retries=0) as client:
        while True:
            with client.responses.stream(model="gpt-6-sol", input=history, tools=tools) as stream:
                response = stream.get_final_response()
            calls = [item for item in response.output if item.type == "function_call"]
            if not calls:
                break
            history += [item.model_dump(exclude_none=True, exclude={"parsed_arguments"})
                        for item in response.output]
            history += [{"type": "function_call_output", "call_id": call.call_id,
                         "output": get_weather(**json.loads(call.arguments))} for call in calls]
    assert (response.output_text, CALLED) == (ANSWER, ["Paris", "Rome"])


@pytest.mark.parametrize("session", ["anthropic"], indirect=True)
def test_anthropic_tool_runner_streamed(session: tuple[Session, io.StringIO]) -> None:
    served, log = session
    with anthropic.Anthropic(base_url=served.url, api_key=served.key, max_retries=0) as client:
        runner = client.beta.messages.tool_runner(
            model="claude-haiku-4-5", max_tokens=1024, tools=[anthropic.beta_tool(get_weather)],
            messages=[{"role": "user", "content": QUESTION}], stream=True)
        finals = [stream.get_final_message() for stream in runner]
    assert (finals[-1].content[0].text, CALLED) == (ANSWER, ["Paris", "Rome"])
    assert [final.stop_reason for final in finals] == ["tool_use", "end_turn"]
    assert log.getvalue().count("-> 200") == 2


@pytest.mark.parametrize("session", ["gemini"], indirect=True)
def test_google_genai_loop_streamed(session: tuple[Session, io.StringIO]) -> None:
    served, log = session
    declaration = types.FunctionDeclaration(name="get_weather", parameters_json_schema=SCHEMA)
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[declaration])])
    contents: list[Any] = [types.Content(role="user", parts=[
        types.Part(text=QUESTION)])]
    with genai.Client(api_key=served.key,
                      http_options=types.HttpOptions(base_url=served.url)) as client:
        while True:
            parts = [part for chunk in client.models.generate_content_stream(
                         model="gemini-2.5-flash", contents=contents, config=config)
                     for part in chunk.candidates[0].content.parts]
            contents.append(types.Content(role="model", parts=parts))
            calls = [part.function_call for part in parts if part.function_call]
            if not calls:
                break
            contents.append(types.Content(role="user", parts=[
                types.Part.from_function_response(
                    name=call.name, response={"output": get_weather(**call.args)})
                for call in calls]))
    assert ("".join(part.text or "" for part in parts), CALLED) == (ANSWER, ["Paris", "Rome"])
    assert "streamGenerateContent" in log.getvalue()


def test_the_command_serves_logs_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    script = tmp_path / "my_script.yaml"
    script.write_text("- text: Hello from the script.\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "course", "emulate", "--provider", "anthropic", "--script",
         str(script), "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    banner = [process.stdout.readline() for _ in range(4)]
    url = banner[1].split()[-1]
    assert banner[2].split()[-1] == "sk-emulator-local"
    reply = httpx.post(url + "/v1/messages", headers={"x-api-key": "sk-emulator-local"}, json={
        "model": "claude-haiku-4-5", "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}]})
    assert reply.json()["content"][0]["text"] == "Hello from the script."
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=10)
    assert process.returncode == 0
    assert "-> 200" in rest and '"Hello from the script." [end_turn]' in rest
    assert "stopped after 1 request(s)" in rest


def test_a_bad_script_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    from course.cli import main

    script = tmp_path / "my_script.yaml"
    script.write_text("- txt: oops\n")
    assert main(["emulate", "--provider", "gemini", "--script", str(script)]) == 2
    assert capsys.readouterr().err == (
        f"error: {script}: step 1: unknown field 'txt'; the fields are text, thinking, calls, "
        "stop_reason, error.\n")
