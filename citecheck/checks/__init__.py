"""Built-in rules, listed explicitly as yamllint lists its own: one module per slug.

A new rule is one module added to `RULES` below, one fixture file (`fixtures/rules/<ID>.yml`) and,
if it reads one, one pack (`citecheck/packs/`). Each module declares itself as data (`ID`, `NAME`,
`STAGE`, `SEVERITY`, `VERDICT`, `GATE`, `DEFAULTS`/`OPTIONS`, `PACK`, and where it applies `UNREACHED`,
`WRITE`, `BLOCKS_APPEND`, `EVIDENCE`: see `citecheck.engine.rule.RuleSpec`) with `check()` and, when it
derives data from its options, `prepare()`. No table elsewhere is keyed on a rule's ID. Third-party
rules come through the `citecheck.rules` entry point group (`citecheck.engine.registry`); modules
starting with `_` are shared helpers.
"""
from __future__ import annotations

from citecheck.checks import (
    bot_challenge,
    credentials_in_url,
    draft_url,
    duplicate_bibliography_entry,
    duplicate_canonical_url,
    duplicate_citation_key,
    firm_context_leak,
    footnote_integrity,
    hallucination_pattern,
    http_error,
    id_integrity,
    insufficient_data_marker,
    likely_fabricated,
    login_wall,
    malformed_url,
    missing_scheme,
    needs_source_marker,
    non_html,
    parked_domain,
    paywall,
    placeholder_domain,
    placeholder_in_corpus,
    private_address,
    redirect,
    reference_mismatch,
    reference_not_found,
    reference_unindexed,
    reference_unverifiable,
    retracted_reference,
    rotted,
    schema,
    soft_404,
    stale_fetch,
    title_mismatch,
    truncated_body,
    uncited_bibliography_entry,
    uncorpused_url,
    unknown_citation_key,
    unknown_source_id,
    unknown_suffix,
    unreachable,
    unreadable_bibliography_entry,
    unsupported_citation,
    unsupported_scheme,
    watermark_company,
)

RULES = (
    bot_challenge, credentials_in_url, draft_url, duplicate_bibliography_entry, duplicate_canonical_url,
    duplicate_citation_key, firm_context_leak, footnote_integrity, hallucination_pattern, http_error, id_integrity,
    insufficient_data_marker, likely_fabricated, login_wall, malformed_url, missing_scheme, needs_source_marker,
    non_html, parked_domain, paywall, placeholder_domain, placeholder_in_corpus, private_address, redirect,
    reference_mismatch, reference_not_found, reference_unindexed, reference_unverifiable, retracted_reference,
    rotted, schema, soft_404, stale_fetch, title_mismatch, truncated_body,
    uncited_bibliography_entry, uncorpused_url,
    unknown_citation_key, unknown_source_id, unknown_suffix, unreachable, unreadable_bibliography_entry,
    unsupported_citation, unsupported_scheme, watermark_company,
)
