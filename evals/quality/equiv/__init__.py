"""Parts of the equivalent-site generator (`evals.quality.equivalents`): tokenisers for JS, CSS and
HTML, the renaming of ids and classes, the palette and font changes, and the DOM restructuring."""
