"""What people read: the audit report and the review pages, rendered from templates, with charts."""
