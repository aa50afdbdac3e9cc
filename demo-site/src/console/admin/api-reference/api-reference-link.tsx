import './api-reference-link.css';

/** Where integrators and admins read every route and webhook: `/docs/api/`, rendered from GET /api/openapi.json. */
export function ApiReferenceLink() {
  return (
    <a class="button button--ghost api-reference-link" href="../docs/api/" target="_blank" rel="noopener">
      API reference
    </a>
  );
}
