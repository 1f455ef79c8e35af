"""Code mode: conventions and decisions scoped to a repo, project or folder (or global), the build and test
state of repos as windowed world events, and the explicit AGENTS.md export. Nothing here reads or stores
file contents: a convention is a short text, a build result a status line."""
