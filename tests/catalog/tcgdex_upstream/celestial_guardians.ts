import { Set } from '../../interfaces'
import serie from '../Pokémon TCG Pocket'

const set: Set = {
	id: "A3",

	name: {
		// de: "Unschlagbare Gene",
		en: "Celestial Guardians",
		// es: "Genes Formidables",
		// fr: "Puissance Génétique",
		// it: "Geni Supremi",
		// pt: "Dominação Genética"
	},

	serie: serie,

	cardCount: {
		official: 155
	},

	releaseDate: "2025-04-30"
}

export default set
