"""URL-shaped text in a draft or memo: find it (links, autolinks, bare, defanged, obfuscated and
schemeless spellings, DOIs), and take it out. Shared by `write` (which scrubs a draft) and M009
draft-url (which reports what `write` would remove), so it sits below both: it imports only
`extract`, `models` and `urls`.
"""
