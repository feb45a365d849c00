import { Card } from "../../../interfaces"
import Set from "../Celestial Guardians"

const card: Card = {
	set: Set,

	name: {
		en: "Alolan Exeggutor",
		fr: "Noadkokod'Alola",
		es: "Exeggutorde Alola",
		it: "Exeggutordi Alola",
		de: "Alola-Kokowei",
		'pt-br': "Exeggutorde Alola",
		ko: "알로라나시"
	},

	illustrator: "Anesaki Dynamic",
	rarity: "Three Diamond",
	category: "Pokemon",

	dexId: [103],
	hp: 150,
	types: ["Grass"],

	evolveFrom: {
		en: "Exeggcute",
		fr: "Noeunoeuf"
	},

	description: {
		en: "Blazing sunlight has brought out the true form and powers of this Pokémon.",
		fr: "L'exposition aux rayons éblouissants du soleil a\nrévélé sa véritable apparence et son potentiel réel.",
	},

	stage: "Stage1",

	attacks: [{
		name: {
			en: "Tropical Hammer",
			fr: "Marteau Tropical",
		},

		damage: 150,
		cost: ["Grass", "Colorless", "Colorless"],

		effect: {
			en: "Flip a coin. If tails, this attack does nothing.",
		}
	}],

	weaknesses: [{
		type: "Fire",
		value: "+20"
	}],

	retreat: 4,
	boosters: ["lunala"]
}

export default card