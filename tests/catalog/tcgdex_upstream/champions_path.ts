import { Set } from '../../interfaces'
import serie from '../Sword & Shield'

const swsh35: Set = {
	id: "swsh3.5",

	name: {
		en: "Champion's Path",
		fr: 'La Voie du Maître',
		es: "Camino de Campeones",
		it: "Futuri Campioni",
		de: "Weg des Champs",
		pt: "Caminho do Campeão"
	},

	tcgOnline: 'CPA',
	serie: serie,

	cardCount: {
		official: 70
	},

	releaseDate: "2020-09-25",

	abbreviations: {
		official: "CPA",
		fr: "VDM"
	},

	thirdParty: {
		cardmarket: 3419
	}
}

export default swsh35
