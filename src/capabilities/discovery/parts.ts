/** The discovery capability's door (issue 55 item 3): the sources' status shape the courts' listing answers with too. */
export { SourcesStatus } from './routes.ts';
