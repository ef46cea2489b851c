"""The one error of the house: this field of this record is wrong, and why.

Importing (RecordError and the problems an import collects), filtering (FilterError), labelling
(LabelError) and the API all say it with this class or a subclass of it. The API turns it into a
400 in one place (`groundview.api.errors`), the pages into a form error in one place
(`groundview.review.forms.first_error` and the `{{ error.field }}: {{ error.message }}` line
their templates show).
"""

from __future__ import annotations


class FieldError(Exception):
    """`field` is a path into the record (`citations[2].endIndex`, `filters.session`); `record`
    says which record when there are many (`line 3 (name)`); either may be empty."""

    def __init__(self, field: str, message: str, *, record: str = "") -> None:
        self.record = record
        self.field = field
        self.message = message
        super().__init__(field, message)

    def __str__(self) -> str:
        # "record: field: message", leaving out the parts that are empty.
        return ": ".join(part for part in (self.record, self.field, self.message) if part)
