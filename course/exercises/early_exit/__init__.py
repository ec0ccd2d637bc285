"""Exercise 2, early exit: `checks` grades `run_loop`; `runs` logs and compares the two runs."""
