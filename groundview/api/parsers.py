"""The API's JSON parser: DRF's, except that a body nested too deeply to read is a 400 like any
other malformed JSON (DRF's lets Python's RecursionError through as a 500), and so is an object
that gives one key twice (DRF's keeps the last, silently; Google's parsers refuse it)."""

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from groundview.answers.reading import unique_keys


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class JSONBodyParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=unique_keys)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply to read") from None
        except ValueError as error:  # malformed JSON, a repeated key, bytes not in the encoding
            raise ParseError(f"JSON parse error - {error}") from None
