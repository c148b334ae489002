"""After the check: suppression comments, output formats, the fix loop and the rule-doc renderer."""
