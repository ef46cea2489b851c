"""What an operator watches: health and readiness, Prometheus metrics, JSON logs, error reporting.

Nothing here is a Django app (no models, no templates); settings.py wires it in by dotted path.
"""
