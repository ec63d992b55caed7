"""Shared test settings: hypothesis profiles sized for CI's 2 shared cores."""

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")
