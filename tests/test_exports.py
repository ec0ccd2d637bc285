"""The public API is exactly what __all__ says, sorted, as in httpx."""

import harness


def test_all_is_sorted_and_complete():
    public = {name for name in dir(harness) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(harness, name)).__name__ == "module"}
    assert harness.__all__ == sorted(harness.__all__, key=lambda n: (not n.isupper(), n))
    assert set(harness.__all__) == public - modules
