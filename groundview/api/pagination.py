"""Cursor pagination: pages stay stable while answers are imported and labelled in between."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import F, Q, QuerySet
from django.utils.dateparse import parse_datetime
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import BasePagination, CursorPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param


def page_size_of(request, pagination) -> int:
    """The `page_size` asked for, at most the pagination's maximum; 400 unless a positive integer
    (DRF's own falls back to the default in silence)."""
    raw = request.query_params.get(pagination.page_size_query_param, "")
    if not raw:
        return pagination.page_size
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise ValidationError({pagination.page_size_query_param: ["Must be a positive integer."]})
    return min(int(raw), pagination.max_page_size)


class Cursor(CursorPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
    ordering = "-id"

    def get_page_size(self, request) -> int:
        return page_size_of(request, self)

    def decode_cursor(self, request):
        # A 400 naming the parameter, as KeysetCursor gives, rather than DRF's 404.
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            cursor = None
            valid = False
        else:
            # DRF hands the position to the filter unread: "p=abc" against an id was a 500.
            valid = (
                cursor is None or cursor.position is None or self.valid_position(cursor.position)
            )
        if not valid:
            raise ValidationError({self.cursor_query_param: ["Invalid cursor."]})
        return cursor

    def valid_position(self, position: str) -> bool:
        return position.isascii() and position.isdigit() and int(position) < 2**63


class NameCursor(Cursor):
    ordering = "name"

    def valid_position(self, position: str) -> bool:
        return "\x00" not in position


class KeysetCursor(BasePagination):
    """Cursor pagination over an ordering chosen by the user, with NULLs last.

    DRF's CursorPagination needs a non-null leading field, but answers sort by scores and times that
    may be missing. Here the cursor holds the last row's (value, id), and the next page is the rows
    after it in the order [value asc/desc NULLS LAST, id] — a keyset, so deep pages cost the same.
    The view says how the queryset is ordered with `sort_field` and `sort_descending`.

    The rows with a value and the rows without are read as two segments, one after the other:
    `ORDER BY value DESC NULLS LAST` cannot walk a plain index on `value`, but `WHERE value IS NOT
    NULL ORDER BY value DESC, id DESC` and `WHERE value IS NULL ORDER BY id DESC` can.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
    cursor_query_param = "cursor"

    def paginate_queryset(self, queryset: QuerySet, request, view=None):
        self.request = request
        self.base_url = request.build_absolute_uri()
        self.field = view.sort_field
        self.descending = view.sort_descending
        size = self.get_page_size(request)
        cursor = self.decode_cursor(request)
        queryset = queryset.annotate(_sort_value=F(self.field))
        backwards = cursor is not None and cursor["p"]
        rows: list = []
        try:
            for segment in self.segments(queryset, cursor, backwards):
                rows += segment[: size + 1 - len(rows)]
                if len(rows) > size:
                    break
        except (ValueError, TypeError, DjangoValidationError):
            # A cursor edited by hand: its value does not fit the sort field.
            raise ValidationError({self.cursor_query_param: ["Invalid cursor."]}) from None
        more = len(rows) > size
        rows = rows[:size]
        if backwards:
            rows.reverse()
            self.has_next, self.has_previous = True, more
        else:
            self.has_next, self.has_previous = more, cursor is not None
        self.rows = rows
        return rows

    def segments(self, queryset: QuerySet, cursor, backwards: bool):
        """Querysets to read in turn: the rows with a value, then those without (reversed when
        walking backwards), each starting after the cursor."""
        field, pk = self.field, "id"
        descending = self.descending != backwards
        # Past the cursor in the walking direction.
        past = "lt" if descending else "gt"
        order_id = "-id" if descending else "id"
        valued = queryset.filter(**{f"{field}__isnull": False}).order_by(
            F(field).desc() if descending else F(field).asc(), order_id
        )
        empty = queryset.filter(**{f"{field}__isnull": True}).order_by(order_id)
        if cursor is not None:
            value, last = cursor["v"], cursor["id"]
            if value is None:
                empty = empty.filter(**{f"{pk}__{past}": last})
            else:
                valued = valued.filter(
                    Q(**{f"{field}__{past}": value}) | Q(**{field: value, f"{pk}__{past}": last})
                )
            if value is None and not backwards:
                return [empty]
            if value is not None and backwards:
                return [valued]
        return [empty, valued] if backwards else [valued, empty]

    def sort_key(self) -> str:
        return ("-" if self.descending else "") + self.field

    def get_page_size(self, request) -> int:
        return page_size_of(request, self)

    def decode_cursor(self, request):
        raw = request.query_params.get(self.cursor_query_param, "")
        if not raw:
            return None
        try:
            data = json.loads(base64.urlsafe_b64decode(raw.encode("ascii")).decode())
            if not isinstance(data, dict) or set(data) != {"s", "v", "id", "p"}:
                raise ValueError
            if data["s"] != self.sort_key():
                # A cursor from a list in another order would start at the wrong row.
                raise ValidationError(
                    {self.cursor_query_param: ["This cursor belongs to another sort order."]}
                )
            if not isinstance(data["id"], int) or not isinstance(data["p"], bool):
                raise ValueError
            if not 0 <= data["id"] < 2**63:
                raise ValueError
            value = data["v"]
            if value is not None and not isinstance(value, str | int | float):
                raise ValueError
            if isinstance(value, str) and value.startswith("dt:"):
                value = parse_datetime(value[3:])
                if value is None:
                    raise ValueError
                data["v"] = value
            elif isinstance(value, str) and "\x00" in value:
                raise ValueError
        except (ValueError, UnicodeError, binascii.Error):
            raise ValidationError({self.cursor_query_param: ["Invalid cursor."]}) from None
        return data

    def encode_cursor(self, row, previous: bool) -> str:
        value = row._sort_value
        if isinstance(value, datetime):
            value = "dt:" + value.isoformat()
        data = {"s": self.sort_key(), "v": value, "id": row.pk, "p": previous}
        token = base64.urlsafe_b64encode(json.dumps(data).encode()).decode("ascii")
        return replace_query_param(self.base_url, self.cursor_query_param, token)

    def get_paginated_response(self, data):
        next_url = self.encode_cursor(self.rows[-1], False) if self.has_next and self.rows else None
        previous_url = None
        if self.has_previous:
            previous_url = (
                self.encode_cursor(self.rows[0], True)
                if self.rows
                else remove_query_param(self.base_url, self.cursor_query_param)
            )
        return Response({"next": next_url, "previous": previous_url, "results": data})

    def get_paginated_response_schema(self, schema):
        return CursorPagination().get_paginated_response_schema(schema)

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": self.cursor_query_param,
                "required": False,
                "in": "query",
                "description": "The pagination cursor value.",
                "schema": {"type": "string"},
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Number of results per page (at most {self.max_page_size}).",
                "schema": {"type": "integer", "minimum": 1},
            },
        ]
