"""Exercise 3, no progress: `checks` grades `call_key` and `NoProgress`; `sequences` are the calls
they observe."""
