import * as listSearch from './listSearch';
import * as loadOptions from './loadOptions';

export const methods = { listSearch, loadOptions };
