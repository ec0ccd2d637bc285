"""Traces: per call, per run (exit first) and in aggregate."""

from harness import Exit, format_run, summarize
from offline.scenarios import SCENARIOS


def test_call_records_hold_the_exact_list_sent():
    result = SCENARIOS["umbrella"].run()
    first, second = result.calls
    assert [m.role for m in first.sent] == ["system", "user"]
    assert second.sent == result.messages[:4]
    assert first.reply.usage.input_tokens < second.reply.usage.input_tokens  # the list grew
    assert all(record.seconds >= 0 for record in result.calls)


def test_format_puts_the_exit_first():
    text = format_run(SCENARIOS["bench_press_capped"].run())
    assert text.splitlines()[0] == "exit: turn_cap"
    assert "call 4 (closing call)" in text and "tool_choice=none" in text


def test_summary_shares_and_top_tools():
    runs = [SCENARIOS[name].run() for name in
            ["umbrella", "refund_doom_loop", "refund_doom_loop", "order_shipment_cycle"]]
    summary = summarize(runs)
    assert summary.runs == 4
    assert summary.share == {Exit.DONE: 0.25, Exit.NO_PROGRESS: 0.75}
    assert summary.top_tools[Exit.NO_PROGRESS][0] == ("search_tickets", 4)
