"""The API's list filters as OpenAPI parameters.

What each filter means, and its schema and description, is `groundview.review.filters`: the review
list, the API and the exports share that one spec. This module only describes it to drf-spectacular.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

from groundview.review.filters import ANSWER_FILTERS, LABEL_FILTERS, RUN_FILTERS


def query_parameters(filters: dict[str, tuple[dict, str]]) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(key, schema, OpenApiParameter.QUERY, description=text)
        for key, (schema, text) in filters.items()
    ]


ANSWER_FILTER_PARAMETERS = query_parameters(ANSWER_FILTERS)
LABEL_FILTER_PARAMETERS = query_parameters(LABEL_FILTERS)
RUN_FILTER_PARAMETERS = query_parameters(RUN_FILTERS)
