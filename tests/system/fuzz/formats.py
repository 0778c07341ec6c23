"""Strategies for the formats the gateway's OpenAPI document names beyond JSON Schema's own.

Loaded by schemathesis through SCHEMATHESIS_HOOKS (tests/system/test/support/schemathesis.ts).
Each format is the gateway's (services/gateway/src/http/formats.ts): this says how to generate a
value that has it, so positive cases are valid ones; the gateway refuses anything else.
"""

from datetime import datetime, timedelta, timezone

import schemathesis
from hypothesis import strategies as st

# future-date-time: an RFC 3339 date-time with its zone, later than now. A day ahead at least, so
# the clock moving on while a case is sent never makes it the past.
_SOON = datetime.now(timezone.utc) + timedelta(days=1)
_LAST = datetime(9999, 12, 30, tzinfo=timezone.utc)

schemathesis.openapi.format(
    "future-date-time",
    st.datetimes(min_value=_SOON.replace(tzinfo=None), max_value=_LAST.replace(tzinfo=None)).map(
        lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    ),
)
