import { Serie } from '../interfaces'

const set: Serie = {
	id: "swsh",
	name: {
		en: "Sword & Shield",
		fr: "Épée et Bouclier",
		es: "Espada y Escudo",
		it: "Spada e Scudo",
		de: "Schwert & Schild"
	},

	energies: [
		'Darkness', 'Dragon',
		'Fighting', 'Fire', 'Grass',
		'Lightning', 'Metal',
		'Psychic', 'Water'
	]
}

export default set
