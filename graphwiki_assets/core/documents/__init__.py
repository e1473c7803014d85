"""Reading documents as documents: passages of prose under their headings, tables as rows,
links as evidence, and the date a source gives itself. One module per format."""
