"""Errors an LLM call can end in. Each is a clean failure: the caller fails that one
unit of work (a source partition) and writes nothing derived from it."""


class LLMError(Exception):
    """An LLM call failed; nothing derived from it should be written."""


class LLMUnavailable(LLMError):
    """The endpoint kept failing (rate limits, server errors, timeouts) until retries ran out,
    or refused the request outright (bad key, unknown model)."""


class LLMBadOutput(LLMError):
    """The reply was still not valid after one repair re-ask."""


class LLMOutputTruncated(LLMBadOutput):
    """The reply stopped at the model's output limit: the request asked for more answers
    than fit in one reply. Asking again as it is would end the same way; asking for fewer
    at a time does not (``llm.halving``)."""


class LLMCallTooLarge(LLMOutputTruncated):
    """The request and the reply it asks for would not fit the model's context window, so it
    was not sent. Like a cut-off reply, it is asked again as smaller calls."""
