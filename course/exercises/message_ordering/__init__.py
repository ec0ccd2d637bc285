"""Exercise 1, message ordering: `checks` grades `append_round` and `to_anthropic`
(`anthropic_format`)."""
