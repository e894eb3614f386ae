"""Stanford Online Products."""
