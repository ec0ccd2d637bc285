"""Solutions for measuring the near-copy finder: `independent/` holds correct answers to the same
cell written separately (different people, different habits), `copied/` disguised copies of one
of them (renamed, reordered, re-commented, a piece moved into a helper). Each file is one solution
cell's source; its name says the function, and for a copy, which answer it copies
(`to_anthropic__from_a__renamed.py`). Read by tests/classgrader/test_copies_threshold.py."""
