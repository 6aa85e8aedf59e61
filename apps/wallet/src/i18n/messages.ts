import en from './en.json';
import es from './es.json';
import ja from './ja.json';
import ko from './ko.json';

export const messages = { en, ja, es, ko };
