import { resolveModelByHubId } from '../catalog/all.ts';
import type { Draft } from './draft.ts';

/**
 * The model a recipe names by its Hub id, from the catalog (model/catalog), unless the import
 * already has one (a config.json given beside it): the entry's shape, named by the id, with a
 * note saying which entry was used; otherwise a warning asking for the config.json.
 */
export function readHubModel(d: Draft, id: string, hasModel: boolean): void {
  d.model['name'] = id;
  if (hasModel) return;
  const found = resolveModelByHubId(id);
  if (!found) {
    d.warn(`model: the recipe names ${id} on the Hugging Face Hub, which the catalog does not hold; give its config.json for the model`);
    return;
  }
  Object.assign(d.model, found.entry.model, { name: id });
  const how = found.exact ? '' : ` (matched as ${found.matched})`;
  d.warn(`model: ${id} read as the catalog entry ${found.entry.id} (${found.entry.model.name})${how}`);
}
