from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

# Swagger UI and Redoc style their pages with inline styles (style attributes, styled-components): these
# two pages alone allow it. Scripts stay as strict as everywhere.
_inline_styles = csp_update({"style-src": [UNSAFE_INLINE]})

urlpatterns = [
    # The API first: its clients poll and write many times a second, and Django tries the patterns in
    # order (the pages' two dozen cost an API request as much as a query). No page's address starts with
    # api/, so the order changes no match.
    path("api/v1/", include("dipserver.api.urls")),
    path("", include("dipserver.core.urls")),
    path("accounts/", include("dipserver.accounts.urls")),
    path("", include("dipserver.web.urls")),  # the HTML pages (web developer)
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The REST API and its interactive docs (assets from drf-spectacular-sidecar: no CDN). The split
    # Swagger view serves its start-up script as a file, so the page needs no inline script (CSP).
    path(
        "api/docs/",
        _inline_styles(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path("api/redoc/", _inline_styles(SpectacularRedocView.as_view(url_name="api-schema")), name="api-redoc"),
]

# Error pages: the documented JSON error body under /api/, Django's HTML pages elsewhere.
handler400 = "dipserver.api.errors.bad_request"
handler403 = "dipserver.api.errors.permission_denied"
handler404 = "dipserver.api.errors.page_not_found"
handler500 = "dipserver.api.errors.server_error"
