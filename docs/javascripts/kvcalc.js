// Placeholder: the calculator widget (owned by the calculator engineer).
