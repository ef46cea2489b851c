"""Serializers: JSON shapes of groundview's objects over the API (snake_case, groundview's own).

The Vertex documents themselves travel unchanged in `document` fields and on the Vertex routes.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from groundview.answers.models import Answer, CheckBatch, CheckRun, Session
from groundview.review.models import AnswerLabel, ClaimLabel, Verdict

MAX_INT64 = 2**63 - 1


class SessionSerializer(serializers.ModelSerializer):
    answer_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Session
        fields = [
            "id",
            "name",
            "state",
            "user_pseudo_id",
            "start_time",
            "end_time",
            "answer_count",
            "imported_at",
            "updated_at",
        ]


class SessionDetailSerializer(SessionSerializer):
    document = serializers.JSONField(source="raw", read_only=True, allow_null=True)

    class Meta(SessionSerializer.Meta):
        fields = [*SessionSerializer.Meta.fields, "document"]


class CheckSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = CheckRun
        fields = ["id", "status", "support_score", "model_id", "finished_at"]


class AnswerSerializer(serializers.ModelSerializer):
    session = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    latest_check = CheckSummarySerializer(read_only=True, allow_null=True)
    label_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Answer
        fields = [
            "id",
            "name",
            "session",
            "state",
            "query_text",
            "answer_text",
            "grounding_score",
            "create_time",
            "complete_time",
            "latest_check",
            "label_count",
            "imported_at",
            "updated_at",
        ]


class AnswerDetailSerializer(AnswerSerializer):
    # The Vertex Answer as stored: in its REST form.
    document = serializers.JSONField(source="raw", read_only=True)

    class Meta(AnswerSerializer.Meta):
        fields = [*AnswerSerializer.Meta.fields, "document"]


class ImportProblemSerializer(serializers.Serializer):
    record = serializers.CharField(help_text="Which record: 'line 3 (name)', 'item 0', 'record'.")
    field = serializers.CharField(help_text="Field path, e.g. citations[2].endIndex; may be empty.")
    message = serializers.CharField()


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    rejected = serializers.IntegerField()
    problems = ImportProblemSerializer(many=True)
    summary = serializers.CharField()


class CheckRunSerializer(serializers.ModelSerializer):
    answer_name = serializers.CharField(read_only=True)

    class Meta:
        model = CheckRun
        fields = [
            "id",
            "answer",
            "answer_name",
            "batch",
            "status",
            "engine_version",
            "model_id",
            "citation_threshold",
            "support_score",
            "error",
            "attempts",
            "timings",
            "queued_at",
            "started_at",
            "finished_at",
        ]


class CheckRunDetailSerializer(CheckRunSerializer):
    request = serializers.JSONField(read_only=True, allow_null=True)
    response = serializers.JSONField(read_only=True, allow_null=True)

    class Meta(CheckRunSerializer.Meta):
        fields = [*CheckRunSerializer.Meta.fields, "request", "response"]


class BatchFailureSerializer(serializers.Serializer):
    run_id = serializers.IntegerField()
    answer_name = serializers.CharField()
    error = serializers.CharField()


class BatchProgressSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    queued = serializers.IntegerField()
    running = serializers.IntegerField()
    succeeded = serializers.IntegerField()
    failed = serializers.IntegerField()
    failures = BatchFailureSerializer(many=True)


class BatchSerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    total = serializers.IntegerField(read_only=True)
    queued = serializers.IntegerField(read_only=True)
    running = serializers.IntegerField(read_only=True)
    succeeded = serializers.IntegerField(read_only=True)
    failed = serializers.IntegerField(read_only=True)

    class Meta:
        model = CheckBatch
        fields = [
            "id",
            "description",
            "created_by",
            "created_at",
            "total",
            "queued",
            "running",
            "succeeded",
            "failed",
        ]


class BatchDetailSerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    progress = BatchProgressSerializer(read_only=True)

    class Meta:
        model = CheckBatch
        fields = ["id", "description", "created_by", "created_at", "progress"]


class StrictFieldsMixin:
    """Refuse a field the serializer does not know, as Check Grounding does: a misspelt "notes"
    would otherwise be dropped without a word, and the reviewer's note lost. Read-only fields
    (what a GET returned) are let through and ignored, so a label read can be sent back."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                writable = ", ".join(n for n, f in self.fields.items() if not f.read_only)
                raise serializers.ValidationError(
                    {key: [f"is not a field; the fields are {writable}"] for key in unknown}
                )
        return super().to_internal_value(data)


class BatchCreateSerializer(StrictFieldsMixin, serializers.Serializer):
    """Either explicit answer ids, or the answer-list filters (all answers if `filters` is {})."""

    answer_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INT64),
        required=False,
        max_length=100_000,
    )
    filters = serializers.DictField(
        child=serializers.CharField(allow_blank=True, max_length=1000), required=False
    )
    description = serializers.CharField(max_length=255, required=False, allow_blank=True)

    def validate(self, attrs):
        if ("answer_ids" in attrs) == ("filters" in attrs):
            raise serializers.ValidationError("Give exactly one of answer_ids or filters.")
        return attrs


class ClaimLabelSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    start_index = serializers.IntegerField(min_value=0, max_value=MAX_INT64)
    end_index = serializers.IntegerField(min_value=0, max_value=MAX_INT64)
    verdict = serializers.ChoiceField(choices=Verdict.choices)
    corrected_citations = serializers.ListField(
        child=serializers.RegexField(r"^[0-9]{1,9}(:[0-9]{1,9})?$", max_length=19),
        required=False,
        max_length=1000,
        help_text='Reference positions, or "reference:chunk", e.g. ["0", "2:1"].',
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    claim_text = serializers.CharField(read_only=True)

    class Meta:
        model = ClaimLabel
        fields = [
            "start_index",
            "end_index",
            "claim_text",
            "verdict",
            "corrected_citations",
            "note",
        ]


class LabelSerializer(StrictFieldsMixin, serializers.ModelSerializer):
    # A plain integer (not a related field), so an out-of-range id is a 400, not a database error.
    answer = serializers.IntegerField(source="answer_id", min_value=1, max_value=MAX_INT64)
    answer_name = serializers.CharField(read_only=True)
    reviewer = serializers.SlugRelatedField(slug_field="username", read_only=True)
    verdict = serializers.ChoiceField(
        choices=Verdict.choices,
        required=False,
        help_text="Omit it to derive the answer's verdict from the claims' verdicts "
        "(`verdict_from_claims` is then true).",
    )
    verdict_from_claims = serializers.BooleanField(read_only=True)
    note = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    claims = ClaimLabelSerializer(many=True, required=False, max_length=10_000)
    answer_text_sha256 = serializers.RegexField(
        r"^[0-9a-fA-F]{64}$",
        required=False,
        write_only=True,
        help_text="SHA-256 (hex) of the answerText the verdicts judge: the label is refused "
        "if the answer's text has changed since.",
    )

    class Meta:
        model = AnswerLabel
        fields = [
            "id",
            "answer",
            "answer_name",
            "reviewer",
            "verdict",
            "verdict_from_claims",
            "note",
            "claims",
            "answer_text_sha256",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]
        # The (answer, reviewer) pair is unique; saving again updates the reviewer's label.
        validators: list = []


class GoogleErrorBodySerializer(serializers.Serializer):
    code = serializers.IntegerField()
    message = serializers.CharField()
    status = serializers.CharField()


class GoogleErrorSerializer(serializers.Serializer):
    error = GoogleErrorBodySerializer()


# Check Grounding JSON, for the OpenAPI document only: the engine validates requests itself.


# Any decimal string, as proto3 JSON reads a number ("0.6", ".5", "6e-1", with space around).
THRESHOLD_STRING = r"^\s*\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$"


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number", "minimum": 0, "maximum": 1},
            # Any decimal string in [0, 1], as proto3 JSON reads a number: "0.6", ".5", "6e-1".
            {"type": "string", "pattern": THRESHOLD_STRING},
        ]
    }
)
class ThresholdField(serializers.Field):
    pass


class GroundingFactSerializer(serializers.Serializer):
    # proto3: absent is "" (Google's REST client leaves "" out).
    factText = serializers.CharField(max_length=10_000, allow_blank=True, required=False)  # noqa: N815
    attributes = serializers.DictField(
        child=serializers.CharField(allow_blank=True), required=False
    )


class CheckGroundingSpecSerializer(serializers.Serializer):
    citationThreshold = ThresholdField(  # noqa: N815
        required=False, help_text="In [0, 1], default 0.6; a number or a numeric string."
    )
    enableClaimLevelScore = serializers.BooleanField(required=False)  # noqa: N815


@extend_schema_field(
    {
        "type": "object",
        "maxProperties": 64,
        # OpenAPI 3.0 has no propertyNames: the key rule is said in words.
        "description": "Keys: 1-63 characters, starting with a lowercase or international "
        "letter; keys and values: lowercase and international letters, digits, '_' and '-'.",
        "additionalProperties": {"type": "string", "pattern": r"^[a-z0-9_\u0080-\uffff-]{0,63}$"},
    }
)
class UserLabelsField(serializers.DictField):
    pass


class CheckGroundingSerializer(serializers.Serializer):
    answerCandidate = serializers.CharField(  # noqa: N815
        allow_blank=True,
        required=False,
        help_text="The answer to check: at most 4096 tokens and 40,960 characters.",
    )
    facts = GroundingFactSerializer(many=True, required=False, max_length=200)
    groundingSpec = CheckGroundingSpecSerializer(required=False)  # noqa: N815
    userLabels = UserLabelsField(required=False)  # noqa: N815


class FactChunkSerializer(serializers.Serializer):
    chunkText = serializers.CharField()  # noqa: N815
    source = serializers.CharField(help_text="Index of the request fact the chunk came from.")
    sourceMetadata = serializers.DictField(  # noqa: N815
        child=serializers.CharField(),
        required=False,
        help_text="The attributes of that fact, when it has any.",
    )


class CitedFactSerializer(serializers.Serializer):
    chunkText = serializers.CharField()  # noqa: N815


class ClaimSerializer(serializers.Serializer):
    startPos = serializers.IntegerField(required=False, help_text="UTF-8 byte offset.")  # noqa: N815
    endPos = serializers.IntegerField(help_text="UTF-8 byte offset, exclusive.")  # noqa: N815
    claimText = serializers.CharField(allow_blank=True)  # noqa: N815
    citationIndices = serializers.ListField(  # noqa: N815
        child=serializers.IntegerField(), required=False, help_text="Indices into citedChunks."
    )
    groundingCheckRequired = serializers.BooleanField()  # noqa: N815
    score = serializers.FloatField(required=False, help_text="With enableClaimLevelScore.")


class CheckGroundingResponseSerializer(serializers.Serializer):
    supportScore = serializers.FloatField(min_value=0, max_value=1)  # noqa: N815
    citedChunks = FactChunkSerializer(many=True)  # noqa: N815
    citedFacts = CitedFactSerializer(many=True)  # noqa: N815
    claims = ClaimSerializer(many=True)
