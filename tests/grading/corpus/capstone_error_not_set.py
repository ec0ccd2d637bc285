"""Bug: a provider error ends the run with status error, but result.error is never set: the caller
cannot see what went wrong or when to try again."""

EXERCISE = "05_capstone"
FAILS = {"run_agent_error"}
EXPECT = "result.error"
PATCH = [
    ("""\
        except ProviderError as error:  # the caller decides: no retry here
            result.error = error
            return None""",
     """\
        except ProviderError:  # the status says it all
            return None"""),
]
