"""Read path: query understanding, channels, fusion, scoring, filters and the X-ray."""
