"""The API's JSON parser: DRF's, except that a body nested too deeply to read is a 400 like any
other malformed JSON (DRF's lets Python's RecursionError through as a 500)."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONBodyParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply to read") from None
