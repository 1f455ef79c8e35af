-- A failed curator run's error held the provider's text ("ModelHTTPError: status_code: 401, ..., body:
-- {'message': 'Incorrect API key provided: sk-proj-...'}"): the server's own API key, readable through
-- curatorRuns by agent tokens. The curator now records a class and a detail it writes itself
-- (curator/model_errors.py); this rewrites the rows stored before to the same texts, the class read from the
-- exception's name and HTTP status, the provider's text dropped. The details must equal model_errors.DETAILS
-- (tests/test_model_errors.py checks that every rewritten row is one of them). Rows of other shapes are
-- left to the read path, which scrubs any error text it shows.
UPDATE curator_runs SET error = 'model error (' || kind || '): ' || CASE kind
        WHEN 'auth' THEN 'the model provider refused the server''s credentials; the admin checks the curator''s API key'
        WHEN 'rate_limit' THEN 'the model provider is limiting requests or the account is out of quota; tried again later'
        WHEN 'timeout' THEN 'the model gave no answer within the curator''s timeout; tried again later'
        WHEN 'bad_output' THEN 'the model''s answer was no usable proposal, also after a retry'
        WHEN 'unreachable' THEN 'the model provider could not be reached or failed on its side; tried again later'
        ELSE 'the model call failed' END
FROM (
    SELECT ctid AS row_id, CASE
        WHEN error ~ '^ModelAuthenticationError' OR error ~ '^[A-Za-z]+: status_code: 40[13]\M' THEN 'auth'
        WHEN error ~ '^Model(RateLimit|QuotaExceeded)Error' OR error ~ '^[A-Za-z]+: status_code: 429\M'
            THEN 'rate_limit'
        WHEN error ~ '^(RunTimedOut|TimeoutError|ModelTimeoutError|ModelRequestTimeout)\M'
            OR error ~ '^[A-Za-z]+: status_code: (408|504)\M' THEN 'timeout'
        WHEN error LIKE 'no usable proposal after a retry%'
            OR error ~ '^(UnexpectedModelBehavior|ContentFilterError|OutputTokenLimitExceeded|IncompleteToolCall)\M'
            THEN 'bad_output'
        WHEN error ~ '^Model(Connection|Unavailable|Overloaded|Server)Error'
            OR error ~ '^[A-Za-z]+: status_code: 5[0-9][0-9]\M' THEN 'unreachable'
        ELSE 'other' END AS kind
    FROM curator_runs
    WHERE error LIKE 'no usable proposal after a retry%' OR error ~ '^[A-Z][A-Za-z]*(Error|Exception|TimedOut|Behavior|Timeout|Call|Exceeded)\M'
) AS old
WHERE curator_runs.ctid = old.row_id;
