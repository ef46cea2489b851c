"""Query pieces every app's lists share."""

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def count_of(model, field: str) -> Coalesce:
    """How many `model` rows point at the outer row through `field`.

    A subquery per row, not a JOIN + GROUP BY over every column of the outer table (its JSON
    document among them).
    """
    counts = (
        model.objects.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counts, output_field=IntegerField()), Value(0))
