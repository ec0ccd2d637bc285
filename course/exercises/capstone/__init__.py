"""Exercise 5, the capstone: `checks` grades `run_agent` on recorded scenarios (`replays`,
`verdicts`) and per-student variants of them (`scenario_variants`), and `summarize_exits`."""
