// The look of a page of rows with filters above them: the access matrix and the access review share it.
import css from './listPage.css';
import { adoptStyles } from './dom';
import { adoptFormStyles } from './form';

/** The forms' look, then the list pages' (a smaller heading, a toolbar of labelled filters), then the page's own. */
export function adoptListPageStyles(own: string): void {
  adoptFormStyles();
  adoptStyles(css);
  adoptStyles(own);
}
