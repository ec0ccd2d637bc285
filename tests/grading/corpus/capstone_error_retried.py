"""Bug: a provider error is retried once before the run ends."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_error"}
EXPECT = 'the recording has only 2 call(s)'
PATCH = [
    ("""\
        except ProviderError as error:  # the caller decides: no retry here
            result.error = error
            return None""",
     """\
        except ProviderError:
            try:  # one more try: the loop retries by itself
                reply = model.complete(sent, tools=tools.specs, tool_choice=tool_choice)
            except ProviderError as error:
                result.error = error
                return None"""),
]
