"""The seed's worked numbers and run_cost."""

import pytest

from harness import PRICES, Price, Usage, cumulative_input, first_turn_over_budget, run_cost
from harness.cost import overrun_ratio


def test_seed_numbers():
    assert cumulative_input(3_000, 1_500, 22) == 412_500
    assert first_turn_over_budget(3_000, 1_500, 400_000) == 22
    assert cumulative_input(5_000, 2_500, 16) == 380_000
    assert cumulative_input(5_000, 2_500, 17) == 425_000
    assert first_turn_over_budget(5_000, 2_500, 400_000) == 17


def test_budget_is_exceeded_only_when_strictly_greater():
    exact = cumulative_input(1_000, 0, 5)
    assert first_turn_over_budget(1_000, 0, exact) == 6


def test_four_times_longer_costs_about_thirteen_times_more():
    assert overrun_ratio(3_000, 1_500, 10) == pytest.approx(13.23, abs=0.01)


def test_formula_matches_a_turn_by_turn_sum():
    for turns in range(0, 30):
        assert cumulative_input(3_000, 1_500, turns) == sum(
            3_000 + 1_500 * (n - 1) for n in range(1, turns + 1))


def test_run_cost_prices_cached_input_apart():
    usages = [Usage(input_tokens=10_000, output_tokens=500, cached_input_tokens=8_000),
              Usage(input_tokens=2_000, output_tokens=100)]
    cost = run_cost(usages, Price(1.0, 0.1, 10.0, as_of="2026-01-01"))
    assert cost == pytest.approx((4_000 * 1.0 + 8_000 * 0.1 + 600 * 10.0) / 1e6)


def test_price_table_is_dated_and_usable():
    price = PRICES["gpt-5-mini"]
    assert price.as_of and price.cached_input < price.input < price.output
    assert run_cost([Usage(input_tokens=1_000_000)], price) == price.input


def test_run_cost_prices_cache_writes_at_their_premium():
    usage = Usage(input_tokens=10_000, output_tokens=100, cached_input_tokens=6_000,
                  cache_write_tokens=3_000)
    sonnet = PRICES["claude-sonnet-4-6"]
    assert sonnet.as_dict()["cache_write"] == 1.25 * sonnet.input  # the 5-minute premium
    assert run_cost([usage], sonnet) == pytest.approx(
        (1_000 * 3.00 + 6_000 * 0.30 + 3_000 * 3.75 + 100 * 15.00) / 1e6)


def test_without_a_premium_a_written_token_costs_the_input_price():
    gpt = PRICES["gpt-5"]
    assert gpt.as_dict()["cache_write"] == gpt.input
    usage = Usage(input_tokens=4_000, cache_write_tokens=4_000)
    assert run_cost([usage], Price(1.0, 0.1, 4.0, as_of="2026-01-01")) == 4_000 / 1e6
