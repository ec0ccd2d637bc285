"""Exercise 4, cost: `checks` grades the cost functions and the usage questions; `variants` gives
each student their own numbers."""
